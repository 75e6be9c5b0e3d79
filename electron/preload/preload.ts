import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { ipcChannelName, ipcEventName } from '../../shared/ipc/channels.js';
import { buildApi } from '../../shared/ipc/build-api.js';
import type { Result } from '../../shared/ipc/result.js';

// Deliberately small: named methods for the contract's channels, nothing else.
const api = buildApi(
  (channel, input) => ipcRenderer.invoke(ipcChannelName(channel), input) as Promise<Result<unknown>>,
  (event, listener) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(ipcEventName(event), wrapped);
    return () => ipcRenderer.removeListener(ipcEventName(event), wrapped);
  },
);

contextBridge.exposeInMainWorld('api', api);
