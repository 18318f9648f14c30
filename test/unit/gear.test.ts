// Gear's field rules and defaults (domain/gear.ts): each activity type has one default gear at most,
// a stored value that is not sound reads as no default, never as a failure.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { defaultsOf, readDefaultGear, validateGearChanges, validateNewGear, withDefaults, withoutGear } from '../../src/domain/gear.ts';

describe('gear defaults', () => {
  it('a type given to one gear moves from the gear that had it; a type left out stops naming it', () => {
    const start = withDefaults({}, 1, ['running', 'walking']);
    expect(start).toEqual({ running: 1, walking: 1 });
    const moved = withDefaults(start, 2, ['running', 'cycling']);
    expect(moved).toEqual({ running: 2, walking: 1, cycling: 2 });
    expect(defaultsOf(moved, 2)).toEqual(['running', 'cycling']);
    expect(withDefaults(moved, 2, [])).toEqual({ walking: 1 });
    expect(withDefaults(moved, 2, null)).toBe(moved);
    expect(withoutGear(moved, [1])).toEqual({ running: 2, cycling: 2 });
  });

  it('reads what is stored as far as it is sound', () => {
    expect(readDefaultGear('{"running": 3, "yoga": 4}')).toEqual({ running: 3, yoga: 4 });
    for (const junk of ['', 'null', '[1]', '{"running": -1}', '{"running": "3"}', '{"flying": 3}', '{"running": 1.5}', '{', null])
      expect(readDefaultGear(junk)).toEqual({});
  });
});

describe('gear fields', () => {
  it('a new gear needs a name and a kind; text is trimmed and bounded', () => {
    expect(validateNewGear({ name: '  Pegasus ', brand: '', kind: 'shoes' })).toEqual({
      name: 'Pegasus',
      brand: null,
      model: null,
      kind: 'shoes',
    });
    const issues = (input: Parameters<typeof validateNewGear>[0]) => {
      try {
        validateNewGear(input);
        return [];
      } catch (error) {
        return (error as ValidationError).issues.map((issue) => issue.path);
      }
    };
    expect(issues({ name: ' ', kind: 'bike' })).toEqual(['name']);
    expect(issues({ name: 'x', kind: 'boat' as never })).toEqual(['kind']);
    expect(issues({ name: 'x'.repeat(101), brand: 'y'.repeat(101), kind: 'bike' })).toEqual(['name', 'brand']);
  });

  it('a change writes only what it names; the name, kind and retirement cannot be cleared', () => {
    expect(validateGearChanges({ brand: null, retired: true })).toEqual({ brand: null, retired: true });
    expect(validateGearChanges({})).toEqual({});
    for (const cleared of [{ name: null }, { kind: null }, { retired: null }])
      expect(() => validateGearChanges(cleared)).toThrow(ValidationError);
  });
});
