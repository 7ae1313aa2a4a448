/** USD figures are reported to the cent. */
export function roundUsd(value: number): number {
  return Math.round(value * 100) / 100;
}
