import { mount } from 'svelte';
import App from './App.svelte';
import './styles/app.css';

import { loadViewState } from './lib/persisted.js';
import { showServiceTextSafely } from './lib/visible-service-text.js';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
// The views' kept state (list filter, sort, place) is in the main process: read it before the first view opens.
await loadViewState();
// Bidi controls and zero-width characters in the service's text are shown, not obeyed, wherever the app shows it.
showServiceTextSafely();
mount(App, { target });
