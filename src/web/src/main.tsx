import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { restore } from './session.ts';
import './styles.css';

const saved = localStorage.getItem('pmx.theme');
if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;

void restore();
createRoot(document.getElementById('root')!).render(<App />);
