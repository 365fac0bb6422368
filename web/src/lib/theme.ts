/** Light, dark, or the system's choice; kept in this browser. */
import { ref, watchEffect } from 'vue';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'zhixing.theme';
const saved = localStorage.getItem(KEY);
export const theme = ref<Theme>(saved === 'light' || saved === 'dark' ? saved : 'system');

const dark = matchMedia('(prefers-color-scheme: dark)');
const apply = () => {
  const resolved = theme.value === 'system' ? (dark.matches ? 'dark' : 'light') : theme.value;
  document.documentElement.dataset.theme = resolved;
};
dark.addEventListener('change', apply);
watchEffect(() => {
  localStorage.setItem(KEY, theme.value);
  apply();
});
