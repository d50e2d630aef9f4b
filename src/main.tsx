import './lib/zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { listenForInstallPrompt } from './app/pwa/use-install-prompt.ts';
import { initTheme } from './lib/theme.ts';
import './styles/base.css';
import './styles/components.css';
import './styles/shell.css';

initTheme();
listenForInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
