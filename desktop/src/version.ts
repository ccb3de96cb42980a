/**
 * The app's version (issue 15): sent when pairing (`appVersion`), shown by
 * `--version`, and part of the download file names (the packager imports it).
 */
export const APP_VERSION = "0.1.0";

/** Product name shown in the terminal and the help text. */
export const APP_NAME = "Assistance à distance de l'Atelier";
