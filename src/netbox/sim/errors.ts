// Errors the NetBox simulator answers with, in NetBox's (Django REST framework's) shapes:
// 400 `{"field": ["message"]}`, 403/404/409/412 `{"detail": "..."}`.
export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Headers the error answer carries (a 412 names the object's current ETag, as NetBox does). */
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export const notFound = (): HttpError => new HttpError(404, { detail: "Not found." });

export const badRequest = (errors: FieldErrors): HttpError => new HttpError(400, errors);

export function addError(errors: FieldErrors, field: string, message: string): void {
  const list = errors[field] ?? [];
  list.push(message);
  errors[field] = list;
}

export const hasErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
