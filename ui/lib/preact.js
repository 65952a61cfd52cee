// The one import of Preact, its hooks and htm (third_party/ui/htm: htm's released standalone
// module, which bundles Preact): views import from here, so a later update touches one line.
export {
  html, render, Component, useState, useEffect, useMemo, useRef, useCallback, useContext, createContext,
} from '/ui/vendor/htm/standalone.module.js';
