/** Shared by the crash-safety test and its child: enough rows that a write spans many pages and several yields. */
export const CRASH_TEST_ROWS = 2000;
