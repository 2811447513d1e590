import { describe, expect, it } from 'vitest';
import { displayNameOf, initialsOf } from './user-display';

describe('user display rules (SPEC §3)', () => {
  it('takes initials from first and last name, upper-cased', () => {
    expect(initialsOf({ firstName: 'ndapewa', lastName: 'nghipondoka' })).toBe('NN');
    expect(initialsOf({ firstName: 'Ana', lastName: '' })).toBe('A');
  });
  it('falls back to U', () => {
    expect(initialsOf({})).toBe('U');
    expect(initialsOf(null)).toBe('U');
  });
  it('joins first and last name, then falls back to the e-mail, then User', () => {
    expect(displayNameOf({ firstName: 'Ana', lastName: 'Shilongo', email: 'a@b.na' })).toBe('Ana Shilongo');
    expect(displayNameOf({ firstName: ' ', lastName: '', email: 'a@b.na' })).toBe('a@b.na');
    expect(displayNameOf({})).toBe('User');
  });
});
