// The app and the browser's router, in one module for web/start.tsx's dynamic import: importing the
// react-router-dom package itself dynamically would keep all of its exports (no tree-shaking).
export { App } from '../shared/app/app';
export { BrowserRouter } from 'react-router-dom';
