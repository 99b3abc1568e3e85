import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from 'react';

export interface LightLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/**
 * How a light screen moves on (docs/adr/0168): in the app, react-router (shared/features/auth/spa-bridge.tsx); on
 * a prerendered page booted without the app, plain links and full page loads, so the page needs no router.
 */
export interface Navigation {
  navigate: (to: string) => void;
  Link: ComponentType<LightLinkProps>;
}

function PlainLink({ to, ...props }: LightLinkProps) {
  return <a href={to} {...props} />;
}

export const plainNavigation: Navigation = { navigate: (to) => window.location.assign(to), Link: PlainLink };

export const NavigationContext = createContext<Navigation>(plainNavigation);

export const useNavigation = (): Navigation => useContext(NavigationContext);
