/** The upload limit the e2e stack runs with (FILES_MAX_BYTES), small enough to cross in a test. */
export const E2E_FILES_MAX_BYTES = 4 * 1024 * 1024;
/** What one tenant may store in the e2e stack: six of the largest uploads. */
export const E2E_FILES_TENANT_QUOTA_BYTES = 6 * E2E_FILES_MAX_BYTES;
