import { describe, expect, it } from 'vitest';
import { imeiIsValid, luhnCheckDigit, serialProblem } from './serial-number';

describe('IMEI Luhn', () => {
  it.each([
    ['49015420323751', 8], ['35693803564380', 9], ['35209900176148', 1], ['00000000000000', 0], ['7992739871', 3],
  ])('%s -> %i', (body, digit) => {
    expect(luhnCheckDigit(body)).toBe(digit);
  });

  it.each([
    ['490154203237518', true], ['356938035643809', true], ['490154203237519', false], ['49015420323751', false],
    ['4901542032375180', false], ['49015420323751a', false], ['', false],
  ])('%s valid: %s', (imei, valid) => {
    expect(imeiIsValid(imei)).toBe(valid);
  });
});

describe('serial problems', () => {
  it.each([
    ['imei', '490154203237518', null],
    ['imei', '490154203237519', /Luhn/],
    ['serial', 'SN-2026/0042.A', null],
    ['serial', '  ', /Enter/],
    ['serial', 'has space', /letters, digits/],
    ['serial', 'x'.repeat(65), /up to 64/],
  ] as const)('%s %s', (tracking, serial, problem) => {
    const found = serialProblem(tracking, serial);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
