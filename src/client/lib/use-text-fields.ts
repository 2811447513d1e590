// Plain controlled text fields for the small sign-in forms (staff, patient, activation), which keep react-hook-form
// out of the first page's bundle: the values, a setter, and the props one <Input> needs.
import { useState } from 'react';

export function useTextFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const field = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  /** The props one <DateInput> needs (it hands over the value itself, not an event). */
  const dateField = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValues((v) => ({ ...v, [name]: value })),
  });
  return { values, setValues, field, dateField };
}
