import { useState } from "react";
import type { FieldError } from "react-hook-form";
import type { z } from "zod";
import { fieldError } from "../../../lib/form-error";

/**
 * The small form state of this feature's dialogs: values, fields touched, and each field's translated error
 * from a shared zod schema (shown once the field was left or a submit was tried).
 */
export function useZodForm<S extends z.ZodObject>(schema: S, initial: Record<keyof z.input<S> & string, string>) {
  type Field = keyof typeof initial & string;
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const parsed = schema.safeParse(values);
  const errorOf = (field: Field): string | undefined => {
    if (!touched[field] || parsed.success) return undefined;
    const issue = parsed.error.issues.find((i) => i.path[0] === field);
    return issue ? fieldError({ type: "zod", message: issue.message } as FieldError) : undefined;
  };
  const bind = (field: Field) => ({
    value: values[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
    onBlur: () => setTouched((tt) => ({ ...tt, [field]: true })),
    error: !!errorOf(field),
    helperText: errorOf(field),
  });
  /** Marks every field touched; the parsed data when valid, else null. */
  const submit = (): z.output<S> | null => {
    setTouched(Object.fromEntries(Object.keys(initial).map((k) => [k, true])) as Partial<Record<Field, boolean>>);
    return parsed.success ? parsed.data : null;
  };
  return { values, bind, submit };
}
