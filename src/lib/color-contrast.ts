// WCAG 2.2 contrast for a finder's primary color, which the widget applies and the dashboard
// shows: white text sits on it and it colors links and focus rings on white, so it must reach
// 4.5:1 against white. A color that does not is darkened (its hue kept) until it does.
type Rgb = [number, number, number];

function toRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance as WCAG 2.2 defines it, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = toRgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `hex` itself when it reaches `minimum` against `background`, else the first darker shade that does. */
export function ensureContrast(hex: string, background = '#ffffff', minimum = 4.5): string {
  let rgb = toRgb(hex);
  let candidate = hex;
  // Each step keeps 94 % of every channel; black (21:1 on white) ends the loop in any case.
  for (let step = 0; step < 120 && contrastRatio(candidate, background) < minimum; step++) {
    rgb = rgb.map((channel) => channel * 0.94) as Rgb;
    candidate = toHex(rgb);
  }
  return candidate;
}

/** `hex` blended toward white by `amount` (0..1): the pale backgrounds of selected rows. */
export function tint(hex: string, amount: number): string {
  return toHex(toRgb(hex).map((channel) => channel + (255 - channel) * amount) as Rgb);
}
