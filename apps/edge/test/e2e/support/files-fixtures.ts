/** The upload limit the e2e stack runs with (FILES_MAX_BYTES), small enough to cross in a test. */
export const E2E_FILES_MAX_BYTES = 4 * 1024 * 1024;
