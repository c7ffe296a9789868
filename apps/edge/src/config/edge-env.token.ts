/** Injection token of the parsed EdgeEnv. */
export const EDGE_ENV = Symbol('EDGE_ENV');
