// First: the first screen's calls leave before the rest of the code is evaluated (first-calls.ts).
import { firstCalls } from './first-calls.js';
import { mount } from 'svelte';
import App from './App.svelte';
import './styles/app.css';

import { loadViewState } from './lib/persisted.js';
import { overview } from './stores/overview.svelte.js';
import { session } from './stores/session.svelte.js';
import { showServiceTextSafely } from './lib/visible-service-text.js';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
// The first screen's calls went out together before this code was evaluated (first-calls.ts), the overview among
// them once the status said someone is signed in: the store takes that answer for its first load.
overview.askEarly(firstCalls.overview);
void session.load(undefined, firstCalls);
// The views' kept state (list filter, sort, place) is in the main process: read it before the first view opens.
await loadViewState(firstCalls.viewState);
// Bidi controls and zero-width characters in the service's text are shown, not obeyed, wherever the app shows it.
showServiceTextSafely();
mount(App, { target });
