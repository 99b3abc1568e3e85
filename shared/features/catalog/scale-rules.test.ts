import { describe, expect, it } from 'vitest';
import { parseScalePattern } from '../../lib/scale-barcode';
import { describeTest, RULE_PRESETS } from './scale-rules-page';

describe('the scale rule editor', () => {
  it('offers only presets the rule parser (and the database CHECK) accepts', () => {
    for (const preset of RULE_PRESETS) expect(parseScalePattern(preset.pattern), preset.pattern).not.toBeNull();
  });

  it('reads a test label with the rule being written', () => {
    // 21 00042 01234 + check digit 9: item 00042, 1.234 kg.
    expect(describeTest('2100042012349', '21.....{NNDDD}', 'weight'))
      .toBe('Item code 00042, 1.234 kg; the item\'s barcode is 2100042000001.');
    expect(describeTest('2300042004997', '23.....{NNNDD}', 'price')).toMatch(/^Item code 00042, price 4\.99;/);
    expect(describeTest('2100042012345', '21.....{NNDDD}', 'weight')).toMatch(/^Not read by this rule/);
    expect(describeTest('2100042012349', '21....{NNDDD}', 'weight')).toBe('Write a valid pattern first.');
    expect(describeTest('  ', '21.....{NNDDD}', 'weight')).toBe('');
  });
});
