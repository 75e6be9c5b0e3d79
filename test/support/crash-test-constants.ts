/** Shared by the crash-safety test and its child: small shards, so each write spans several files. */
export const CRASH_TEST_SHARD_ROWS = 400;
export const CRASH_TEST_ROWS = 1500;
