import { describe, expect, it } from 'vitest';
import { parseIndexList, planProbes, PlacementError } from '../../src/trace/index.js';

describe('probe placement', () => {
  it('puts a probe before, between and after the plugins, and a calibration pair', () => {
    const plan = planProbes([
      { index: '10', name: 'a', source: 'plugin-dir' },
      { index: '40', name: 'b', source: 'plugin-dir' },
    ]);
    expect(plan.probes).toEqual(['09', '11', '41', '42']);
    expect(plan.segments.map((s) => s.label)).toEqual(['10-a', '40-b', 'probe hop 41->42']);
    expect(plan.calibration?.from).toBe('41');
  });

  it('reports plugins with no free index between them as one group, and shared indexes too', () => {
    const plan = planProbes([
      { index: '20', name: 'x', source: 'plugin-dir' },
      { index: '21', name: 'y', source: 'plugin-dir' },
      { index: '30', name: 'p', source: 'plugin-dir' },
      { index: '30', name: 'q', source: 'plugin-dir' },
    ]);
    expect(plan.segments.map((s) => s.label)).toEqual(['group 20-x+21-y', 'group 30-p+30-q', 'probe hop 31->32']);
    expect(plan.notes).toContain('20-x, 21-y: no free index between them, reported as one group');
  });

  it('takes the calibration pair before the first plugin when the end is full', () => {
    const plan = planProbes([
      { index: '05', name: 'a', source: 'plugin-dir' },
      { index: '98', name: 'b', source: 'plugin-dir' },
      { index: '99', name: 'c', source: 'plugin-dir' },
    ]);
    expect(plan.probes).toEqual(['00', '01', '04', '06']);
    expect(plan.calibration).toMatchObject({ from: '00', to: '01' });
    expect(plan.notes.join('\n')).toMatch(/no free index after 99/);
  });

  it('with nothing known, watches the whole range; --probes all takes every free index', () => {
    expect(planProbes([]).segments.map((s) => s.label)).toEqual([
      'probe hop 00->01',
      'indexes 02-97',
      'probe hop 98->99',
    ]);
    const all = planProbes([{ index: '50', name: 'a', source: 'index-flag' }], 'all');
    expect(all.probes).toHaveLength(99);
    expect(all.notes[0]).toMatch(/^--probes all: 99 probes, each adding about one probe hop/);
    expect(all.segments.find((s) => s.plugins.length > 0)?.label).toBe('50-a');
  });

  it('parses --index and refuses what is not two digits', () => {
    expect(parseIndexList('10, 40').map((p) => p.index)).toEqual(['10', '40']);
    expect(() => parseIndexList('7')).toThrow(PlacementError);
    expect(() => parseIndexList('7')).toThrow(/two-digit/);
  });
});
