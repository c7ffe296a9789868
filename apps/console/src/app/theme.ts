import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** Darker shades than Mantine's defaults, so white text on filled buttons and badges reaches WCAG AA contrast. */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  focusRing: 'auto',
});

/** Mantine's dimmed text (descriptions, captions, dividers) falls below AA contrast in both schemes: one shade nearer the text. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
