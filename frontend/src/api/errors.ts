// What a refused request says: the API's error body (`{"detail": ...}` or field errors) made readable.

/** A 4xx/5xx answer (or a network failure, status 0) with the API's error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | null;
  readonly fieldErrors: Record<string, string[]>;

  constructor(status: number, body: unknown, fallback: string) {
    const { detail, fieldErrors } = parseErrorBody(body);
    super(detail ?? firstFieldError(fieldErrors) ?? fallback);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.fieldErrors = fieldErrors;
  }

  /** Every message worth showing: the detail, then each field's errors ("username: taken"). */
  get messages(): string[] {
    const out: string[] = [];
    if (this.detail) out.push(this.detail);
    for (const [field, errors] of Object.entries(this.fieldErrors)) {
      const prefix = field === "non_field_errors" ? "" : `${humanizeField(field)}: `;
      for (const error of errors) out.push(prefix + error);
    }
    if (out.length === 0) out.push(this.message);
    return out;
  }

  /** One line for a notice: the detail and every field's messages, without field names. */
  get summary(): string {
    const parts = [this.detail, ...Object.values(this.fieldErrors).flat()].filter((m): m is string => !!m?.trim());
    const text = parts.length ? parts.join(" · ") : this.message;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
}

/** Splits `{"detail": ...}` or `{"field": ["message", ...]}` into its parts. */
export function parseErrorBody(body: unknown): { detail: string | null; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  if (typeof body === "string") return { detail: body.trim() || null, fieldErrors };
  if (Array.isArray(body)) return { detail: body.map(String).join(" ") || null, fieldErrors };
  if (!body || typeof body !== "object") return { detail: null, fieldErrors };
  let detail: string | null = null;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === "detail") {
      detail = typeof value === "string" ? value : JSON.stringify(value);
    } else if (Array.isArray(value)) {
      fieldErrors[key] = value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
    } else if (typeof value === "string") {
      fieldErrors[key] = [value];
    } else if (value !== null && value !== undefined) {
      fieldErrors[key] = [JSON.stringify(value)];
    }
  }
  return { detail, fieldErrors };
}

function firstFieldError(fieldErrors: Record<string, string[]>): string | null {
  for (const errors of Object.values(fieldErrors)) if (errors[0]) return errors[0];
  return null;
}

function humanizeField(field: string): string {
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
