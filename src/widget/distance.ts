// Distances in kilometres or miles in the visitor's language; the distances themselves are
// src/lib/geo.ts's, shared with the publish.
import { distanceKm, hasPosition } from '../lib/geo.ts';

export { distanceKm, hasPosition };

const KM_PER_MILE = 1.609344;

/** One decimal below 10 units, whole numbers above: "1.4 km", "12 mi", "0,3 km" in German. */
export function createDistanceFormatter(units: 'km' | 'mi', language: string): (km: number) => string {
  const unit = units === 'mi' ? 'mile' : 'kilometer';
  const fine = new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 });
  const coarse = new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 0 });
  return (km) => {
    const value = units === 'mi' ? km / KM_PER_MILE : km;
    return (value < 10 ? fine : coarse).format(value);
  };
}
