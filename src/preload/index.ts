import { contextBridge, ipcRenderer } from 'electron';
import { createStorewiseApi } from './api';

// Sandboxed preload: bundled into one CommonJS file (see electron.vite.config.ts); only 'electron' is required at runtime.
contextBridge.exposeInMainWorld('storewise', createStorewiseApi(ipcRenderer));
