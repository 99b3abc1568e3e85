import { describe, expect, it } from 'vitest';
import { screenModulesFor } from './screen-modules';

describe('screenModulesFor', () => {
  it('names the dashboard frame and the section a deep link opens', () => {
    const frame = ['supabase', 'dashboard', 'workspaceFrame', 'storePcHeartbeat'];
    expect(screenModulesFor('/dashboard/reports')).toEqual([...frame, 'reports']);
    expect(screenModulesFor('/dashboard/reports/')).toEqual([...frame, 'reports']);
    expect(screenModulesFor('/dashboard/business')).toEqual([...frame, 'workspace']);
    expect(screenModulesFor('/dashboard/business/team')).toEqual([...frame, 'workspace']);
    expect(screenModulesFor('/dashboard/pos')).toEqual([...frame, 'pos']);
    expect(screenModulesFor('/dashboard/catalog')).toEqual([...frame, 'catalog']);
    expect(screenModulesFor('/dashboard/inventory/counts')).toEqual([...frame, 'inventory']);
    expect(screenModulesFor('/dashboard')).toEqual([...frame, 'businessOverview']);
    expect(screenModulesFor('/dashboard/')).toEqual([...frame, 'businessOverview']);
  });

  it('loads only the frame for the dashboard\'s own screens, and not a look-alike section', () => {
    const frame = ['supabase', 'dashboard', 'workspaceFrame', 'storePcHeartbeat'];
    expect(screenModulesFor('/dashboard/profile')).toEqual(frame);
    expect(screenModulesFor('/dashboard/reportsx')).toEqual(frame);
  });

  it('loads the admin panel for /admin and nothing for the public pages', () => {
    expect(screenModulesFor('/admin/users')).toEqual(['supabase', 'admin']);
    expect(screenModulesFor('/')).toEqual([]);
    expect(screenModulesFor('/auth')).toEqual([]);
    expect(screenModulesFor('/dashboards')).toEqual([]);
    expect(screenModulesFor('/administrator')).toEqual([]);
  });
});
