// #region registration
'use client';
// app/first-view/registration.tsx: the registration, in the browser's bundle
import 'hub-embed/define';

export function Registration() {
  return null;
}
// #endregion registration
