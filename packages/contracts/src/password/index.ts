export { passwordProblem, PASSWORD_MIN_SCORE } from './password-problem';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, normalizePassword } from '../console/password-rules';
