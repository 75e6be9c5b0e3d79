/** Shared by the crash-safety test and its child: enough rows that a refresh spans several batches (WRITE_BATCH) and yields between them. */
export const CRASH_TEST_ROWS = 5000;
