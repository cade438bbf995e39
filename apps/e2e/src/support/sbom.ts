/** A component of the image's CycloneDX SBOM, as tools/containers/sbom-of-image.mjs writes it. */
export interface SbomComponent {
  'bom-ref': string;
  type: string;
  name: string;
  version: string;
  purl?: string;
  cpe?: string;
  components?: SbomComponent[];
}

/** The parts of the SBOM the tests read. */
export interface Sbom {
  bomFormat: string;
  components: SbomComponent[];
  dependencies: Array<{ ref: string; dependsOn: string[] }>;
}
