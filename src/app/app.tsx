import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { AuthProvider } from './auth/auth-provider.tsx';
import { DataProvider } from './data/data-provider.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AuthProvider>
      <DataProvider>
        <RouterProvider router={router} />
      </DataProvider>
    </AuthProvider>
  );
}
