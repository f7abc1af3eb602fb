/**
 * hub-embed/mock: the simulator moved to its own package, hub-embed-mock, which an app installs as a dev
 * dependency. This entry re-exports it for one release so that imports keep working meanwhile.
 */
export * from 'hub-embed-mock';
