import { describe, expect, it } from 'vitest';
import { FilterError, ObjectFilter, globMatcher, parseLabel } from '../../src/observe/filters.js';

describe('globMatcher', () => {
  it('matches * and ? over the whole name, everything else literally', () => {
    expect(globMatcher('web-*')('web-1')).toBe(true);
    expect(globMatcher('web-*')('xweb-1')).toBe(false);
    expect(globMatcher('redis-?')('redis-0')).toBe(true);
    expect(globMatcher('redis-?')('redis-10')).toBe(false);
    expect(globMatcher('a.b')('axb')).toBe(false);
    expect(globMatcher('a.b*')('a.bc')).toBe(true);
    expect(globMatcher('(x)+[y]')('(x)+[y]')).toBe(true);
    expect(globMatcher('exact')(undefined)).toBe(false);
  });
});

describe('parseLabel', () => {
  it('splits at the first =, values may be empty or contain =', () => {
    expect(parseLabel('app=web')).toEqual(['app', 'web']);
    expect(parseLabel('k=')).toEqual(['k', '']);
    expect(parseLabel('k=a=b')).toEqual(['k', 'a=b']);
  });
  it('refuses a spec without key=', () => {
    expect(() => parseLabel('app')).toThrow(FilterError);
    expect(() => parseLabel('=web')).toThrow(/--label "=web" is not key=value/);
  });
});

const pods = [
  { id: 'p1', namespace: 'shop', name: 'web-1', labels: { app: 'web' } },
  { id: 'p2', namespace: 'data', name: 'db-0', labels: { app: 'db' } },
  { id: 'p3', namespace: 'shop', name: 'idle-0' },
];
const containers = [
  { id: 'c1', podSandboxId: 'p1', name: 'nginx', labels: { tier: 'front' } },
  { id: 'c2', podSandboxId: 'p1', name: 'envoy' },
  { id: 'c3', podSandboxId: 'p2', name: 'postgres' },
];

describe('ObjectFilter', () => {
  it('keeps everything when empty', () => {
    const f = new ObjectFilter();
    expect(f.empty).toBe(true);
    expect(f.selectState(pods, containers)).toEqual({ pods, containers });
  });

  it('keeps pods without containers for pod-level filters', () => {
    const sel = new ObjectFilter({ namespace: 'shop' }).selectState(pods, containers);
    expect(sel.pods.map((p) => p.id)).toEqual(['p1', 'p3']);
    expect(sel.containers.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('a container filter keeps only pods holding a match, and no pod events', () => {
    const f = new ObjectFilter({ container: 'ng*' });
    const sel = f.selectState(pods, containers);
    expect(sel.pods.map((p) => p.id)).toEqual(['p1']);
    expect(sel.containers.map((c) => c.id)).toEqual(['c1']);
    expect(f.matchesPodEvent(pods[0])).toBe(false);
  });

  it('labels match on the container or on its pod, and all must hold', () => {
    expect(new ObjectFilter({ labels: ['app=web'] }).selectState(pods, containers).containers.map((c) => c.id)).toEqual(
      ['c1', 'c2'],
    );
    expect(
      new ObjectFilter({ labels: ['app=web', 'tier=front'] }).selectState(pods, containers).containers.map((c) => c.id),
    ).toEqual(['c1']);
    expect(new ObjectFilter({ labels: ['tier=front'] }).matchesPodEvent(pods[0])).toBe(false);
  });
});
