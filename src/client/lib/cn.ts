import { clsx, type ClassValue } from 'clsx';

/** Joins class names, skipping falsy ones. */
export const cn = (...values: ClassValue[]): string => clsx(values);
