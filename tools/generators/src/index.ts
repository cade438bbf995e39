export { siblingAppGenerator } from './sibling-app/generator';
