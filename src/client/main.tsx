import { createRoot } from 'react-dom/client';

function App() {
  return <h1>Low-code builder</h1>;
}

createRoot(document.getElementById('root')!).render(<App />);
