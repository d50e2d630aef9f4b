/**
 * The deals feature's public surface: the sponsored banner other features show (the dashboard).
 * Other features import from here only, never from the files beside it.
 */
export { SponsoredBanner } from './list/sponsored-banner.tsx';
