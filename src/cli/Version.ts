/** weft's version, kept in one place for --version, the init frame and the User-Agent. */
export const version = "0.1.0"
