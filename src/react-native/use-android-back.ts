/** Android back for <HubEmbedView>: it closes a form the page opened before it goes to the app. */
import { useEffect, type RefObject } from 'react';
import { BackHandler } from 'react-native';
import type { HostKernel } from '../host/types.js';

/**
 * While `pageForm` says the page has a form open, back closes it; the Modal's own onRequestClose handles
 * the native form.
 */
export function useAndroidBack(kernel: HostKernel, pageForm: RefObject<boolean>): void {
  useEffect(() => {
    const subscription = BackHandler.addEventListener('hardwareBackPress', () => {
      if (!pageForm.current) return false;
      // The page said a form opened; if no dialog was behind it (a page's own form.opened), this one press
      // finds that out and the next goes to the app.
      const noForm = () => (pageForm.current = false);
      void kernel.closeForm().then((closed) => closed || noForm(), noForm);
      return true;
    });
    return () => subscription.remove();
  }, [kernel]);
}
