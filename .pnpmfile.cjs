// Published manifests drop the `vigie-source` export condition: it points the repository's tests and tools at the
// TypeScript sources, and means nothing to applications installing the packages.
function withoutSourceCondition(value) {
  if (Array.isArray(value)) return value.map(withoutSourceCondition);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'vigie-source').map(([key, inner]) => [key, withoutSourceCondition(inner)]));
}

module.exports = {
  hooks: {
    beforePacking(manifest) {
      if (manifest.exports) manifest.exports = withoutSourceCondition(manifest.exports);
      return manifest;
    },
  },
};
