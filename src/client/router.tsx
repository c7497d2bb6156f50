/** The route table (runtime spec §2), screens loaded lazily. */
import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoading } from './shell/PageLoading.tsx';
import { guardLoader, resetLoader } from './shell/session.ts';

function screen(load: () => Promise<{ default: ComponentType }>) {
  const Screen = lazy(load);
  return (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/login',
    element: screen(() => import('./screens/login/LoginScreen.tsx')),
    children: [
      { index: true, element: screen(() => import('./screens/login/LoginForm.tsx')) },
      { path: 'register', element: screen(() => import('./screens/login/RegisterForm.tsx')) },
      { path: 'forget', element: screen(() => import('./screens/login/ForgetForm.tsx')) },
      { path: ':token', element: screen(() => import('./screens/login/TokenLogin.tsx')) },
    ],
  },
  { path: '/reset', loader: resetLoader },
  { path: '/dev/queue', element: screen(() => import('./screens/dev/QueueScreen.tsx')) },
  {
    path: '/',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    // Sign-in is checked again whenever the path changes (a …/logout path must act).
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(() => import('./screens/home/RootLayout.tsx')),
    children: [
      { index: true, element: screen(() => import('./screens/home/HomeScreen.tsx')) },
      { path: '*', element: screen(() => import('./screens/home/NotFound.tsx')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
