import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { AuthProvider } from './auth/auth-provider.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>
  );
}
