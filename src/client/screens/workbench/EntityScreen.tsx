export default function EntityScreen() {
  return null;
}
