// The React Native matrix (`npm run ci -- metro`, issue 59 item 3): every React Native, react-native-webview and
// Expo SDK the package claims, each row an app that installs the packed tarball beside them. A row names the
// app it runs in; rows whose versions agree may share one install. The newest React Native is 0.88.1, so the
// "newest 0.8x" and "newest release" rows are one row. Expo SDK 58 is the newest Expo SDK; it pins
// react-native-webview 14.0.1, the one row of that major.
//
// The oldest row holds the floors of src/core/peer-floors.ts (React Native 0.74, react-native-webview 13.8.0,
// react-native-safe-area-context 4.10.0, React 18): a floor that moves moves here too
// (test/metro/matrix.test.ts checks that the oldest row names them).

/** An app's dependencies besides the tarball: exact versions, as a lock file would hold them. */
export interface MatrixApp {
  /** Its folder under node_modules/.cache/hub-embed-rn-matrix/. */
  name: string;
  dependencies: Record<string, string>;
}

export interface MatrixRow {
  name: string;
  app: MatrixApp;
  /**
   * How the row bundles, with that version's default Metro config: `react-native bundle` with
   * `@react-native/metro-config`'s, or `expo export:embed` (what an Expo app's native build runs) with
   * `expo/metro-config`'s.
   */
  bundler: 'react-native' | 'expo';
  /** The tsconfig the app's template extends: the README snippet and the example screen type-check under it. */
  tsconfig: string;
  /** The Metro version the row runs (read from the install): before 0.82, Metro ignores `exports`. */
  metro: string;
  /** Also exported for the web (`expo export --platform web`) and driven in Chromium (test/metro/expo-web.ts). */
  web?: boolean;
}

const RN_074: MatrixApp = {
  name: 'rn-0.74',
  dependencies: {
    'react-native': '0.74.7',
    react: '18.2.0',
    'react-native-webview': '13.8.0',
    'react-native-safe-area-context': '4.10.0',
    '@react-native/metro-config': '0.74.89',
    '@react-native/babel-preset': '0.74.89',
    '@react-native/typescript-config': '0.74.89',
    '@react-native-community/cli': '13.6.9',
    '@types/react': '18.2.79',
  },
};

const RN_078: MatrixApp = {
  name: 'rn-0.78',
  dependencies: {
    'react-native': '0.78.3',
    react: '19.0.0',
    'react-native-webview': '13.17.0',
    'react-native-safe-area-context': '5.11.1',
    '@react-native/metro-config': '0.78.3',
    '@react-native/babel-preset': '0.78.3',
    '@react-native/typescript-config': '0.78.3',
    '@react-native-community/cli': '15.1.3',
    '@types/react': '19.0.14',
  },
};

/** The newest React Native (0.88.1, also the newest 0.8x), with what npm installs of react-native-webview. */
const RN_088: MatrixApp = {
  name: 'rn-0.88',
  dependencies: {
    'react-native': '0.88.1',
    react: '19.3.0',
    'react-native-webview': '16.0.0',
    'react-native-safe-area-context': '5.11.1',
    '@react-native/metro-config': '0.88.1',
    '@react-native/babel-preset': '0.88.1',
    // The newest published: there is no 0.88 of it.
    '@react-native/typescript-config': '0.87.1',
    '@react-native-community/cli': '20.2.0',
    '@types/react': '19.3.0',
  },
};

/** Expo SDK 52 with the versions its bundledNativeModules.json names (what `npx expo install` picks). */
const EXPO_52: MatrixApp = {
  name: 'expo-52',
  dependencies: {
    expo: '52.0.49',
    'react-native': '0.76.9',
    react: '18.3.1',
    'react-native-webview': '13.12.5',
    'react-native-safe-area-context': '4.12.0',
    '@types/react': '18.3.12',
    // npm nests expo's own expo-asset under node_modules/expo, where expo/metro-config does not look
    // ("The required package `expo-asset` cannot be found"): the app names it, as Expo's message says to.
    'expo-asset': '11.0.5',
  },
};

/** Expo SDK 56 (the newest that installs) with the versions its bundledNativeModules.json names. */
const EXPO_56: MatrixApp = {
  name: 'expo-56',
  dependencies: {
    expo: '56.0.23',
    'react-native': '0.85.3',
    react: '19.2.3',
    'react-native-webview': '13.16.1',
    'react-native-safe-area-context': '5.7.0',
    '@types/react': '19.2.7',
    // As in Expo SDK 52: npm nests expo-asset under node_modules/expo.
    'expo-asset': '56.0.25',
  },
};

/**
 * Expo SDK 58 (the newest) with the versions its bundledNativeModules.json names: React Native 0.88.1 and
 * react-native-webview 14.0.1, not the 16.0.0 that `npm install` would pick.
 */
const EXPO_58: MatrixApp = {
  name: 'expo-58',
  dependencies: {
    expo: '58.0.26',
    'react-native': '0.88.1',
    react: '19.3.0',
    'react-native-webview': '14.0.1',
    'react-native-safe-area-context': '5.11.1',
    '@types/react': '19.3.0',
    // As in Expo SDK 52: npm nests expo-asset under node_modules/expo.
    'expo-asset': '58.0.21',
    // Its web target (`expo export --platform web`), with what bundledNativeModules.json names for it.
    'react-dom': '19.3.0',
    'react-native-web': '0.21.4',
    '@expo/metro-runtime': '58.0.17',
  },
};

export const ROWS: MatrixRow[] = [
  {
    name: 'React Native 0.74, react-native-webview 13.8.0 (the floors)',
    app: RN_074,
    bundler: 'react-native',
    tsconfig: '@react-native/typescript-config/tsconfig.json',
    metro: '0.80',
  },
  {
    name: 'React Native 0.78, react-native-webview 13.17.0',
    app: RN_078,
    bundler: 'react-native',
    tsconfig: '@react-native/typescript-config/tsconfig.json',
    metro: '0.81',
  },
  {
    name: 'React Native 0.88 (the newest), react-native-webview 16.0.0',
    app: RN_088,
    bundler: 'react-native',
    // Its package exports the file as its root, as the 0.8x templates name it.
    tsconfig: '@react-native/typescript-config',
    metro: '0.87',
  },
  {
    name: 'Expo SDK 52 (React Native 0.76), react-native-webview 13.12.5',
    app: EXPO_52,
    bundler: 'expo',
    tsconfig: 'expo/tsconfig.base',
    metro: '0.81',
  },
  {
    name: 'Expo SDK 56 (React Native 0.85), react-native-webview 13.16.1',
    app: EXPO_56,
    bundler: 'expo',
    tsconfig: 'expo/tsconfig.base',
    metro: '0.84',
  },
  {
    name: 'Expo SDK 58 (React Native 0.88), react-native-webview 14.0.1',
    app: EXPO_58,
    bundler: 'expo',
    tsconfig: 'expo/tsconfig.base',
    metro: '0.87',
    web: true,
  },
];
