import { ValidationError } from '../../errors';

/** Client-side checks with the contract's ranges; `param` is the wire name the server would use. */

export function requireNonEmptyString(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ValidationError(`${param} must be a non-empty string`, param);
  }
  return value;
}

export function optionalString(value: unknown, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${param} must be a string`, param);
  return value;
}

export function optionalNumberInRange(
  value: unknown,
  min: number,
  max: number,
  param: string,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ValidationError(`${param} must be a number from ${min} to ${max}`, param);
  }
  return value;
}

export function optionalInteger(value: unknown, min: number, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ValidationError(`${param} must be an integer of at least ${min}`, param);
  }
  return value;
}

export function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ValidationError(`${param} must be a boolean`, param);
  return value;
}

export function requireStringArray(value: unknown, param: string): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ValidationError(`${param} must be a non-empty array of strings`, param);
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw new ValidationError(`${param}[${i}] must be a string`, `${param}[${i}]`);
  });
  return value as string[];
}
