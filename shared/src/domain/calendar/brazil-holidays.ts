/**
 * Brazil's national holidays for a year (Lei 662/1949, 6.802/1980, 14.759/2023) and the movable days every
 * business observes (Carnival Monday and Tuesday, Good Friday, Corpus Christi), computed from Easter.
 * Dates are local calendar dates "YYYY-MM-DD"; a company adds its own (state, city, closures) on top.
 */
export type Holiday = { date: string; name: string; movable: boolean };

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/** Easter Sunday (Gregorian, the anonymous "Meeus/Jones/Butcher" computus). */
export const easterSunday = (year: number): { month: number; day: number } => {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
};

const shift = (year: number, month: number, day: number, days: number) => {
  const t = new Date(Date.UTC(year, month - 1, day + days));
  return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
};

export const brazilHolidays = (year: number): Holiday[] => {
  const easter = easterSunday(year);
  const fixed: [number, number, string][] = [
    [1, 1, "Confraternização Universal"],
    [4, 21, "Tiradentes"],
    [5, 1, "Dia do Trabalho"],
    [9, 7, "Independência do Brasil"],
    [10, 12, "Nossa Senhora Aparecida"],
    [11, 2, "Finados"],
    [11, 15, "Proclamação da República"],
    [12, 25, "Natal"],
  ];
  if (year >= 2024) fixed.push([11, 20, "Dia Nacional de Zumbi e da Consciência Negra"]);
  const movable: [number, string][] = [
    [-48, "Carnaval (segunda-feira)"],
    [-47, "Carnaval (terça-feira)"],
    [-2, "Sexta-feira Santa"],
    [60, "Corpus Christi"],
  ];
  return [
    ...fixed.map(([m, d, name]) => ({ date: iso(year, m, d), name, movable: false })),
    ...movable.map(([offset, name]) => ({ date: shift(year, easter.month, easter.day, offset), name, movable: true })),
  ].sort((x, y) => x.date.localeCompare(y.date));
};
