// sluice/bcrypt: npm bcrypt's functions on sluice's Cpu lane (see bcrypt.js).

export declare function genSaltSync(rounds?: number, minor?: 'a' | 'b'): string;
export declare function genSalt(rounds?: number, minor?: 'a' | 'b'): Promise<string>;
export declare function genSalt(callback: (err: Error | undefined, salt: string) => void): void;
export declare function genSalt(rounds: number, callback: (err: Error | undefined, salt: string) => void): void;
export declare function genSalt(rounds: number, minor: 'a' | 'b', callback: (err: Error | undefined, salt: string) => void): void;
export declare function hashSync(data: string | Buffer, saltOrRounds: string | number): string;
export declare function hash(data: string | Buffer, saltOrRounds: string | number): Promise<string>;
export declare function hash(data: string | Buffer, saltOrRounds: string | number, callback: (err: Error | null, encrypted: string) => void): void;
export declare function compareSync(data: string | Buffer, encrypted: string): boolean;
export declare function compare(data: string | Buffer, encrypted: string): Promise<boolean>;
export declare function compare(data: string | Buffer, encrypted: string, callback: (err: Error | null, same: boolean) => void): void;
export declare function getRounds(encrypted: string): number;
