/** Milliseconds as the bench tables print them. */
export const ms = (value: number, digits = 2): string => `${value.toFixed(digits)} ms`;

/** A difference with its sign always shown: +0.42, -0.03. */
export const signed = (value: number, digits = 2): string => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

/** The same in milliseconds: +0.42 ms, -0.03 ms. */
export const signedMs = (value: number, digits = 2): string => `${signed(value, digits)} ms`;
