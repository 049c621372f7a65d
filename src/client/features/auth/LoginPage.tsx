export function LoginPage() {
  return (
    <main>
      <h1>Welcome to IR-HHT</h1>
    </main>
  );
}
