// <DateInput> bound to a react-hook-form field. The props FormField adds (id, aria-invalid, aria-describedby) reach
// the input itself, so the label and the error stay wired to it.
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { DateInput, type DateInputProps } from './date-input';

export interface FormDateInputProps<T extends FieldValues> extends Omit<DateInputProps, 'value' | 'onChange' | 'name'> {
  control: Control<T>;
  name: Path<T>;
}

export function FormDateInput<T extends FieldValues>({ control, name, ...props }: FormDateInputProps<T>): React.JSX.Element {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <DateInput
          {...props}
          ref={field.ref}
          name={field.name}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
