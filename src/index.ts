// pvectl's library entry point: the pieces other programs can use directly.
export {};
