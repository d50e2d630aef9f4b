/** The staff feature's public surface: the staff home. */
export { StaffHomePage } from './staff-home-page.tsx';
