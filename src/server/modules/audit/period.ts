// Calendar days (YYYY-MM-DD) as UTC instants: a day filter covers [day 00:00Z, next day 00:00Z).
const DAY_MS = 86_400_000;

export const startOfDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** The first instant after the day (for an inclusive "to" date). */
export const endOfDay = (day: string): Date => new Date(startOfDay(day).getTime() + DAY_MS);
