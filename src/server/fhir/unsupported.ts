// The FHIR API's refusal of a search it cannot answer: never silently ignored (issue 14 item 4).
import { AppError } from '../errors/app-error';

export const unsupported = (message: string, path?: string): AppError =>
  new AppError('UNSUPPORTED_SEARCH_PARAMETER', message, path ? { issues: [{ path, message }] } : {});
